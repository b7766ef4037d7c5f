STREAM_GAME: int
STREAM_PLAYER: int
STREAM_DECISION: int
STREAM_EPISODE: int
STREAM_OPPONENTS: int
STREAM_ARENA_SEAT: int
STREAM_PLAY_SEAT: int
STREAM_RESAMPLE: int
STREAM_LADDER_TABLE: int

def derive_seed(seed: int, stream: int, index: int) -> int: ...
def stream(seed: int, count: int) -> list[int]: ...
def bounded(seed: int, n: int, count: int) -> list[int]: ...
def shuffled(seed: int, n: int) -> list[int]: ...
