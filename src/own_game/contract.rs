//! A contract check of a user's rules, like a perft for them: it walks
//! the positions the start reaches (up to a limit) and checks what the
//! engine relies on.
