"""Game records as `bao eval --records` writes them (KIBA), read by the solving scripts."""
import re


def read_games(path):
    """Each game's moves and its winner ('south', 'north' or 'draw'), in the file's order."""
    games, winner = [], 'draw'
    for line in open(path):
        line = line.strip()
        result = re.match(r'^\[Result "(\S*)', line)
        if result:
            winner = {'S': 'south', 'N': 'north'}.get(result.group(1), 'draw')
        if line.startswith('[Game'):
            games.append(([], winner))
        move = re.match(r'^\d+:\s*(.*?);', line)
        if move and games:
            games[-1][0].extend(move.group(1).split())
    return games
