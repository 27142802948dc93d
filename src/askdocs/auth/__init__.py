"""Bearer tokens (JWT HS256) and the typed identity they carry."""
