// The reference is one library for its users: `import ScreenTimeReference` brings the selection codec and the URL
// and shield-text encodings (modules of their own, so that a fuzz binary for one of them carries none of the
// shield and authorization code) with the rest.
@_exported import ScreenTimeActivity
@_exported import ScreenTimeEncoding
@_exported import ScreenTimeSelection
