"""The demos ``companion serve --demo`` runs: a game that plays itself (`table`), and
the same on a simulated table seen by simulated sensors and the real reconciler
(`sensing_table`). Only the composition root (`companion.runtime`) picks one."""
