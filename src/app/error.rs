//! Why the bot could not start, whichever face it starts with.

/// Why the bot could not start (or stopped): the configuration, or the store.
#[derive(Debug, thiserror::Error)]
pub enum StartError {
    /// No token anywhere.
    #[error("no Discord token: set the DISCORD_TOKEN environment variable (or `token` in the config file, see config.example.toml)")]
    MissingToken,
    /// The token is not shaped like one.
    #[error("the Discord token does not look like a bot token (three parts separated by dots): copy it again from the developer portal (your application → Bot → Reset Token)")]
    MalformedToken,
    /// The configuration is wrong.
    #[error("configuration: {0}")]
    Config(String),
    /// The database cannot be opened or read.
    #[error("database: {0}")]
    Store(String),
}

impl StartError {
    /// The process's exit code: 2 for what the configuration must fix, 1 otherwise.
    pub fn exit_code(&self) -> i32 {
        match self {
            StartError::MissingToken | StartError::MalformedToken | StartError::Config(_) => 2,
            StartError::Store(_) => 1,
        }
    }
}
