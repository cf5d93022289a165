"""The engine's version: part of every mutation record and of every cache fingerprint."""

ENGINE_VERSION = "0.7.0"
