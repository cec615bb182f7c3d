//! Application service: loads aggregates, runs domain commands, appends, waits for read models (read-your-writes).
