"""Beyond one table: tables publish their public events to an MQTT broker
(`companion.hall.outbox`), the hall stores them in PostgreSQL (`companion.hall.ingest`).
docs/hall.md says what is built and what is not yet."""
