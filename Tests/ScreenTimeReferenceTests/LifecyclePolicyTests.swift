import Testing

@testable import ScreenTimeReference

/// SPEC §3 "App lifecycle policy".
@Suite struct LifecyclePolicyTests {
    typealias O = LifecyclePolicy.Observation
    static let nd = O.status(.notDetermined), denied = O.status(.denied), approved = O.status(.approved)

    func run(_ observations: [O]) -> (actions: [LifecyclePolicy.Action], policy: LifecyclePolicy) {
        var policy = LifecyclePolicy()
        let actions = policy.observe(observations)
        return (actions, policy)
    }

    @Test func startsApprovedWithShieldsActive() {
        let policy = LifecyclePolicy()
        #expect(policy.isApproved && policy.shieldsActive && !policy.awaitingPick)
    }

    @Test func notDeterminedFlickerChangesNothing() {
        let r = run([Self.nd, Self.nd, Self.approved, Self.nd, Self.nd, Self.nd])
        #expect(r.actions.isEmpty)
        #expect(r.policy == LifecyclePolicy())
    }

    @Test func revocationClearsThenNotifiesOnce() {
        let r = run([Self.nd, Self.denied])
        #expect(r.actions == [.clearShields, .notifyRevoked])
        #expect(!r.policy.shieldsActive)
    }

    @Test func doubleDeniedNotifiesOnce() {
        let r = run([Self.denied, Self.nd, Self.denied, Self.denied])
        #expect(r.actions == [.clearShields, .notifyRevoked])
    }

    @Test func revocationWithoutShieldsPostsNoNotice() {
        var policy = LifecyclePolicy(isApproved: true, shieldsActive: false)
        #expect(policy.observe(Self.denied).isEmpty)
        #expect(!policy.isApproved)
    }

    @Test func reapprovalRequiresAPickAndKeepsShieldsOff() {
        let r = run([Self.denied, Self.approved])
        #expect(r.actions == [.clearShields, .notifyRevoked, .requirePick])
        #expect(!r.policy.shieldsActive)
        #expect(r.policy.awaitingPick)
        // approvedWithDataAccess is approved: no second requirePick.
        var policy = r.policy
        #expect(policy.observe(.status(.approvedWithDataAccess)).isEmpty)
        #expect(policy.observe(Self.approved).isEmpty)
    }

    @Test func approvedWithDataAccessEndsAnEpisodeLikeApproved() {
        #expect(run([Self.denied, .status(.approvedWithDataAccess)]).actions.last == .requirePick)
    }

    @Test func pickWhileDeniedIsIgnored() {
        let r = run([Self.denied, .pick])
        #expect(!r.policy.shieldsActive)
        #expect(r.actions == [.clearShields, .notifyRevoked])
    }

    @Test func pickAfterReapprovalActivatesShields() {
        let r = run([Self.denied, Self.approved, .pick])
        #expect(r.policy.shieldsActive)
        #expect(!r.policy.awaitingPick)
    }

    @Test func twoEpisodesTwoNotices() {
        let r = run([Self.denied, Self.approved, .pick, Self.nd, Self.denied, Self.approved])
        #expect(
            r.actions == [.clearShields, .notifyRevoked, .requirePick, .clearShields, .notifyRevoked, .requirePick])
    }

    @Test func episodeWithoutANewPickPostsNoSecondNotice() {
        // Re-approved but never picked: nothing to lose at the second denial.
        let r = run([Self.denied, Self.approved, Self.denied])
        #expect(r.actions == [.clearShields, .notifyRevoked, .requirePick])
    }

    /// Every sequence of up to 6 observations over the 5 kinds (19,531 sequences):
    /// - `notDetermined` never acts, and deleting all `notDetermined` changes no action;
    /// - notices = episodes (approved → denied transitions with shields active), `clearShields` always right before;
    /// - after a revocation, shields are active only after a pick made after a later approval (no old tokens).
    @Test func invariantsOverAllShortSequences() {
        let alphabet: [O] = [Self.nd, Self.denied, Self.approved, .status(.approvedWithDataAccess), .pick]
        var sequence: [O] = []
        func check() {
            var policy = LifecyclePolicy()
            var all: [LifecyclePolicy.Action] = []
            var approved = true
            var active = true
            var pickedSinceApproval = true
            var episodes = 0
            for o in sequence {
                let actions = policy.observe(o)
                if o == Self.nd { #expect(actions.isEmpty) }
                all += actions
                switch o {
                case .status(.denied):
                    if approved && active { episodes += 1 }
                    if approved { active = false }
                    approved = false
                case .status(.approved), .status(.approvedWithDataAccess):
                    if !approved { pickedSinceApproval = false }
                    approved = true
                case .pick:
                    if approved {
                        active = true
                        pickedSinceApproval = true
                    }
                default: break
                }
                #expect(policy.shieldsActive == active, "\(sequence)")
                if policy.shieldsActive { #expect(pickedSinceApproval && policy.isApproved, "\(sequence)") }
            }
            #expect(all.filter { $0 == .notifyRevoked }.count == episodes, "\(sequence)")
            for (i, action) in all.enumerated() where action == .notifyRevoked {
                #expect(i > 0 && all[i - 1] == .clearShields, "\(sequence)")
            }
            var withoutND = LifecyclePolicy()
            #expect(withoutND.observe(sequence.filter { $0 != Self.nd }) == all, "\(sequence)")
        }
        func extend(_ depth: Int) {
            check()
            guard depth > 0 else { return }
            for o in alphabet {
                sequence.append(o)
                extend(depth - 1)
                sequence.removeLast()
            }
        }
        extend(6)
    }
}
