// Placeholder entry point, replaced by the command table below as commands land.
print("stc: commands are being built")
