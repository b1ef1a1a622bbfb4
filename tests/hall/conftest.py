from hallkit import broker, dsn, postgres

__all__ = ["broker", "dsn", "postgres"]
