"""Games written for the tests, registered through ``engine.registry`` as a game of the bot would be."""
