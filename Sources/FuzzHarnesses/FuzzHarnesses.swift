// `import FuzzHarnesses` brings the fuzz target type and the selection targets (module FuzzCore, which the
// selection fuzz binaries link alone) with the targets declared here.
@_exported import FuzzCore
