"""The conformance kit: the rules as test vectors that any implementation can run, perft counts, and the
line protocol that carries them (``specs/conformance/README.md``).

- :mod:`.answers`: this engine's answer to each request of the line protocol;
- :mod:`.vectors`: the cases of ``specs/conformance/vectors.jsonl``, their outcomes and differences;
- :mod:`.server`: ``fly-rules engine``, the protocol over stdin and stdout;
- :mod:`.runner`: ``fly-rules conform --engine COMMAND``, the cases and perft counts against any engine.
"""

__all__: list[str] = []
