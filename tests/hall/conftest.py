from hallkit import broker, browser, dsn, postgres

__all__ = ["broker", "browser", "dsn", "postgres"]
