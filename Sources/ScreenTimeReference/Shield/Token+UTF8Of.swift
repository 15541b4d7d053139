extension Token {
    /// The token whose bytes are the UTF-8 of `text`: the same token as `Token(bytes: Array(text.utf8))`, encoded
    /// straight from the string's storage without building the byte array. (Package only: the vector format's
    /// `shield.evaluate` names tokens by readable ids such as `"app:mail"`, one token per id.)
    package init(utf8Of text: String) {
        self.init(validatedData: Base64.encode(text.utf8))
    }
}
