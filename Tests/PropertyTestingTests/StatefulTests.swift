import PropertyTesting
import Testing

/// The system under test: a queue with a planted bug. With exactly three elements queued, `dequeue`
/// returns the newest element instead of the oldest.
final class BuggyQueue {
    var items: [Int] = []
    func enqueue(_ x: Int) { items.append(x) }
    func dequeue() -> Int? {
        if items.isEmpty { return nil }
        if items.count == 3 { return items.removeLast() }
        return items.removeFirst()
    }
    var count: Int { items.count }
}

enum QueueCommand: Equatable, Sendable, CustomStringConvertible {
    case enqueue(Int)
    case dequeue
    case count
    var description: String {
        switch self {
        case .enqueue(let x): return "enqueue(\(x))"
        case .dequeue: return "dequeue"
        case .count: return "count"
        }
    }
}

func queueMachine(bugFree: Bool = false) -> StateMachine<[Int], BuggyQueue, QueueCommand> {
    StateMachine(
        initialModel: { [] },
        makeSystem: { BuggyQueue() },
        commands: { model in
            let enqueue = Gen.int(in: 0...9).map(QueueCommand.enqueue)
            return model.isEmpty
                ? Gen.oneOf(enqueue, Gen.constant(.count))
                : Gen.oneOf(enqueue, Gen.constant(.dequeue), Gen.constant(.count))
        },
        precondition: { model, command in command != .dequeue || !model.isEmpty },
        nextModel: { model, command in
            switch command {
            case .enqueue(let x): return model + [x]
            case .dequeue: return Array(model.dropFirst())
            case .count: return model
            }
        },
        execute: { command, queue, model in
            switch command {
            case .enqueue(let x): queue.enqueue(x)
            case .dequeue:
                let got = bugFree ? (queue.items.isEmpty ? nil : queue.items.removeFirst()) : queue.dequeue()
                if got != model.first {
                    return "dequeued \(String(describing: got)), model expected \(String(describing: model.first))"
                }
            case .count:
                if queue.count != model.count { return "count \(queue.count), model \(model.count)" }
            }
            return nil
        },
        invariant: { model, queue in queue.count == model.count ? nil : "size \(queue.count) != \(model.count)" }
    )
}

@Suite struct StatefulTests {
    @Test(arguments: [1, 2, 3, 4, 5] as [UInt64])
    func findsAndShrinksThePlantedBug(seed: UInt64) {
        let check = queueMachine().check("queue", config: RunConfiguration(seed: seed, iterations: 500))
        #expect(check.result.status == .failed)
        #expect(
            check.counterexample == [.enqueue(0), .enqueue(0), .enqueue(1), .dequeue],
            Comment(rawValue: check.result.report))
        #expect(check.result.failure?.message.hasPrefix("step 4 (dequeue)") == true)
        #expect(check.result.failure?.counterexample == "1. enqueue(0)\n2. enqueue(0)\n3. enqueue(1)\n4. dequeue")
    }

    @Test func correctSystemPasses() {
        let result = queueMachine(bugFree: true).property("queue.correct").check(
            RunConfiguration(seed: 1, iterations: 300))
        #expect(result.passed, Comment(rawValue: result.report))
    }

    @Test func programsRespectPreconditionsForAnyBytes() {
        var rng = Xoshiro256(seed: 3)
        for _ in 0..<500 {
            let bytes = (0..<Int(rng.next(upTo: 200))).map { _ in UInt8(truncatingIfNeeded: rng.next()) }
            var size = 0
            for command in queueMachine().programs.generate(from: bytes) {
                switch command {
                case .enqueue: size += 1
                case .dequeue:
                    #expect(size > 0)
                    size -= 1
                case .count: break
                }
            }
        }
    }
}

/// A machine made with `applying:` (the model changes in place) is the same machine as one made with
/// `nextModel:`: same programs from the same bytes, same failures.
@Suite struct InPlaceModelTests {
    static func inPlace(bugFree: Bool) -> StateMachine<[Int], BuggyQueue, QueueCommand> {
        let copying = queueMachine(bugFree: bugFree)
        return StateMachine(
            initialModel: copying.initialModel, makeSystem: copying.makeSystem, commands: copying.commands,
            precondition: copying.precondition,
            applying: { model, command in
                switch command {
                case .enqueue(let x): model.append(x)
                case .dequeue: model.removeFirst()
                case .count: break
                }
            },
            execute: copying.execute, invariant: copying.invariant)
    }

    @Test func sameProgramsAndFailures() throws {
        for bugFree in [false, true] {
            let copying = queueMachine(bugFree: bugFree)
            let inPlace = Self.inPlace(bugFree: bugFree)
            var failures = 0
            for seed in 0..<300 as Range<UInt64> {
                let a = copying.programs.generate(seed: seed)
                let b = inPlace.programs.generate(seed: seed)
                #expect(a == b)
                let fa = try copying.failure(of: a)
                let fb = try inPlace.failure(of: b)
                #expect(fa == fb)
                if fa != nil { failures += 1 }
                #expect(inPlace.nextModel([1, 2], .dequeue) == [2])
            }
            #expect((failures > 0) == !bugFree)
        }
    }

    @Test func replacingNextModelReplacesTheInPlaceForm() throws {
        var machine = Self.inPlace(bugFree: true)
        // A model that never changes: the queue grows, so the invariant fails at the first enqueue.
        machine.nextModel = { model, _ in model }
        let message = try machine.failure(of: [.enqueue(1)])
        #expect(message?.contains("size 1 != 0") == true, "\(message ?? "nil")")
    }
}
