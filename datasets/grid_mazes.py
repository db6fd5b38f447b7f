"""Many-room grid mazes with offline data from noisy random walks (written here: no PyPI package
ships room mazes with an offline random-walk dataset at this scale; the environment is a small
gymnasium ``Env``).

A maze has ``rooms x rooms`` square rooms of ``room x room`` free cells, separated by one-cell
walls; every pair of adjacent rooms is joined by one doorway cell at a seeded position in their
shared wall (four rooms: 4 doorways; sixteen rooms: 24). Actions 0..3 move up/right/down/left;
a move into a wall leaves the agent in place. Offline data: trajectories of an epsilon-noisy
random walk (repeat the previous action, or with probability ``eps`` draw a new one uniformly),
each from a uniformly random free cell. Test tasks go from the top-left room to the
bottom-right room (the longest room-to-room distance). The truth (for metrics only) is the list
of doorway cells and the true shortest-path distance of each task. ``data["env"]`` specifies the
environment; methods use it only through ``make_env`` (to act), never to read the walls.
"""
from __future__ import annotations

import functools
from dataclasses import dataclass
from typing import ClassVar

import numpy as np

from claimbench.api import Dataset, Instance

MOVES = np.array([(-1, 0), (0, 1), (1, 0), (0, -1)])  # up, right, down, left


def room_maze(rooms: int, room: int, rng: np.random.Generator) -> tuple[np.ndarray, list]:
    """Boolean wall array (True = wall) with an outer border, and the doorway cells (r, c)."""
    side = rooms * (room + 1) + 1
    walls = np.zeros((side, side), dtype=bool)
    walls[:: room + 1, :] = True
    walls[:, :: room + 1] = True
    doors = []
    for i in range(rooms):
        for j in range(rooms):
            r0, c0 = i * (room + 1) + 1, j * (room + 1) + 1  # top-left free cell of room (i, j)
            if j + 1 < rooms:  # door in the wall to the right
                d = (r0 + int(rng.integers(room)), c0 + room)
                walls[d] = False
                doors.append(d)
            if i + 1 < rooms:  # door in the wall below
                d = (r0 + room, c0 + int(rng.integers(room)))
                walls[d] = False
                doors.append(d)
    return walls, doors


def step_cell(walls: np.ndarray, cell: int, action: int) -> int:
    """Deterministic maze dynamics on flat cell indices r * side + c."""
    side = walls.shape[1]
    r, c = divmod(int(cell), side)
    nr, nc = r + MOVES[action][0], c + MOVES[action][1]
    if walls[nr, nc]:  # the border is wall, so nr, nc stay in range
        return int(cell)
    return int(nr * side + nc)


def bfs_distances(walls: np.ndarray, source: int) -> np.ndarray:
    """True shortest-path distances (moves) from ``source`` to every cell; inf for walls."""
    from collections import deque

    dist = np.full(walls.size, np.inf)
    dist[source] = 0
    queue = deque([source])
    while queue:
        s = queue.popleft()
        for a in range(4):
            t = step_cell(walls, s, a)
            if dist[t] == np.inf:
                dist[t] = dist[s] + 1
                queue.append(t)
    return dist


@functools.lru_cache(maxsize=None)
def maze_env_class():
    """The gymnasium environment class (built lazily: gymnasium is imported inside)."""
    import gymnasium as gym

    class RoomMazeEnv(gym.Env):
        """Observation: flat cell index; reward -1 per move, episode ends at the goal."""

        def __init__(self, walls: np.ndarray, start: int, goal: int, max_steps: int):
            self.walls, self.max_steps = walls, max_steps
            self.start, self.goal = int(start), int(goal)
            self.action_space = gym.spaces.Discrete(4)
            self.observation_space = gym.spaces.Discrete(walls.size)
            self.cell, self.t = self.start, 0

        def reset(self, *, seed=None, options=None):
            super().reset(seed=seed)
            self.cell, self.t = self.start, 0
            return self.cell, {}

        def step(self, action):
            self.cell = step_cell(self.walls, self.cell, int(action))
            self.t += 1
            terminated = self.cell == self.goal
            return self.cell, -1.0, terminated, (not terminated) and self.t >= self.max_steps, {}

    return RoomMazeEnv


def make_env(env_spec: dict, start: int, goal: int):
    return maze_env_class()(env_spec["walls"], start, goal, env_spec["max_steps"])


def random_walks(walls: np.ndarray, n_traj: int, length: int, eps: float,
                 rng: np.random.Generator) -> tuple[np.ndarray, np.ndarray]:
    free = np.flatnonzero(~walls.ravel())
    cells = np.empty((n_traj, length + 1), dtype=np.int64)
    actions = np.empty((n_traj, length), dtype=np.int64)
    for i in range(n_traj):
        s, a = int(rng.choice(free)), int(rng.integers(4))
        cells[i, 0] = s
        for t in range(length):
            if rng.random() < eps:
                a = int(rng.integers(4))
            s = step_cell(walls, s, a)
            actions[i, t], cells[i, t + 1] = a, s
    return cells, actions


@dataclass
class RoomMaze(Dataset):
    name: ClassVar[str] = "room_maze"
    rooms: int = 4  # rooms per side: 2 = four rooms, 4 = sixteen rooms (the largest here)
    room: int = 5  # free cells per room side
    n_traj: int = 400  # offline trajectories
    traj_len: int = 100  # steps per trajectory (note's plan: length 100)
    eps: float = 0.3  # probability of a new random direction per step
    n_tasks: int = 20  # test (start, goal) pairs
    step_budget: float = 4.0  # max_steps = step_budget * maze side

    def make(self, seed: int) -> Instance:
        rng = np.random.default_rng(seed)
        walls, doors = room_maze(self.rooms, self.room, rng)
        side = walls.shape[1]
        cells, actions = random_walks(walls, self.n_traj, self.traj_len, self.eps, rng)
        # Tasks: start in the top-left room, goal in the bottom-right room.
        first = np.arange(1, self.room + 1)
        last = first + (self.rooms - 1) * (self.room + 1)
        tasks = [(int(rng.choice(first)) * side + int(rng.choice(first)),
                  int(rng.choice(last)) * side + int(rng.choice(last)))
                 for _ in range(self.n_tasks)]
        task_dist = [float(bfs_distances(walls, s)[g]) for s, g in tasks]
        data = {"cells": cells, "actions": actions, "tasks": tasks, "side": side,
                "env": {"walls": walls, "max_steps": int(self.step_budget * side)}}
        truth = {"doors": doors, "task_dist": task_dist}
        return Instance(data=data, truth=truth)
