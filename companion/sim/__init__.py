"""Simulators: a table played by simulated people and seen by simulated sensors
(`table`), random legal games (`random_games`), a game seen through the rendered camera
(`camera_game`), an engine state standing in for the table service (`memory_link`), the
reader hub's firmware in simavr, socat pairs and a scripted peer (`hub_harness`, for the
hub's tests and benchmarks).
They use the product; the product never imports them."""
