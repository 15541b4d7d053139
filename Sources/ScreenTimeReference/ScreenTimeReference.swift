// The reference is one library for its users: `import ScreenTimeReference` brings the selection codec (its own
// module, so that a fuzz binary for it carries none of the shield, authorization and encoding code) with the rest.
@_exported import ScreenTimeSelection
