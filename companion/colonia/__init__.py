"""*Colonia* (Queen Games 2009, seed 004): six weeks of seven days in medieval Cologne, as
a pure, typed rules engine behind the table's game seam (record name ``colonia``;
docs/colonia.md). What the seed does not print (the setup sheet, the cards) the box learns
at the table (`companion.colonia.cards`, `companion.games.cards`)."""
