"""arbiter/bots/mcts.py key: equal moves get equal keys, different moves different keys."""

from arbiter.bots.mcts import key


def test_equal_moves_equal_keys_whatever_the_order_of_names() -> None:
    a = {"move": "play", "card": "bazooka", "at": [-3, 1]}
    b = {"at": [-3, 1], "card": "bazooka", "move": "play"}
    assert key(a) == key(b) and hash(key(a)) == hash(key(b))


def test_different_moves_different_keys() -> None:
    moves = [
        True,
        1,
        "true",
        None,
        "null",
        0,
        False,
        [1, 2],
        [2, 1],
        {"a": 1},
        {"a": True},
        [["a", 1]],
        {"a": [1]},
        {"a": 1, "b": 2},
        "a",
        ["a"],
        {"at": [0, 1]},
        {"at": [1, 0]},
    ]
    keys = [key(m) for m in moves]
    assert len(set(keys)) == len(moves)
