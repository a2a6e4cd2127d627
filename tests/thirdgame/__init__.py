"""A third trick-taking game, plain whist for three, registered by the tests to run through every client."""
