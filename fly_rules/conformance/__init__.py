"""The conformance kit: the rules as test vectors that any implementation can run, perft counts, and the
line protocol that carries them (``specs/conformance/README.md``).

- :mod:`.answers`: this engine's answer to each request of the line protocol;
- :mod:`.perft`: perft and divide, the counts of legal action sequences, within a budget;
- :mod:`.vectors`: the cases of ``specs/conformance/vectors.jsonl``, their outcomes and differences;
- :mod:`.wire`: one line of the protocol read safely, whatever it holds;
- :mod:`.server`: ``fly-rules engine``, the protocol over stdin and stdout;
- :mod:`.process`: the engine under test as a process, asked within a timeout and a size limit;
- :mod:`.runner`: ``fly-rules conform --engine COMMAND``, the cases and perft counts against any engine;
- :mod:`.report`: a run's failures, summary, and JSON and JUnit XML reports.

Each game's own part of the answers lives beside the game (``fly_rules.fly.conformance``,
``fly_rules.dreyfus.conformance``), named by its descriptor.
"""

__all__: list[str] = []
