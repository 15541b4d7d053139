// Naive baseline: bytes turned into ManagedSettingsStore calls (hide some apps, a filter over a few domains, strict
// mode, clearAllSettings) and then the environment's questions. A crash is the only oracle.
import ScreenTimeReference

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOneInput(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    let environment = ScreenTimeEnvironment()
    let domains = ["example.com", "www.example.com", "Example.COM", "news.example", "bad domain"]
    var i = 0
    while i + 2 < bytes.count {
        let (op, a, b) = (bytes[i], Int(bytes[i + 1]), Int(bytes[i + 2]))
        i += 3
        let store = ManagedSettingsStore(named: .init("s\(op % 3)"), environment: environment)
        switch (op / 3) % 5 {
        case 0:
            store.application.blockedApplications = Set(
                (0..<a).map { Application(token: ApplicationToken(bytes: [UInt8(truncatingIfNeeded: $0), 1])) })
        case 1: store.webContent.blockedByFilter = .specific([WebDomain(domain: domains[a % domains.count])])
        case 2: store.application.denyAppRemoval = b % 2 == 0
        case 3: store.clearAllSettings()
        default:
            _ = try? environment.evaluate(.url("https://" + domains[a % domains.count]))
            _ = try? environment.evaluate(.removal)
            _ = try? environment.canLaunch(
                ApplicationToken(bytes: [UInt8(truncatingIfNeeded: b), 1]), category: ActivityCategoryToken(bytes: [9]))
        }
    }
    return 0
}
