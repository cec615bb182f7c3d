//! Read models folded from the event log: leagues, games, standings, score history, as-of views, replay.
