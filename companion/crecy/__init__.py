"""*Le Testament du Duc de Crecy* (seed 002): a pure, typed rules engine on the game seam.

`engine` (apply, legal options, pending, chance), `record` (header, start, replay),
`box` (card forms and the seed's printed values), `views` (what each viewer sees),
`words` (narration), `game` (the `companion.games.Game`). docs/crecy.md says which rules
were chosen where the seed is silent or contradicts itself."""
