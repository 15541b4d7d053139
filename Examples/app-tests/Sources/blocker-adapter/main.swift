// The app's functions over the adapter protocol, for `stc conformance --adapter` and `stc explore --adapter`.
import BlockerAppChecks
import ScreenTimeTesting

ScreenTimeAdapter.serve(.blockerApp)
