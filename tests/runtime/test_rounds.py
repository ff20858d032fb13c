"""
The service's job rounds (``runtime.rounds``): a job brought forward while its round
runs takes one more turn in that round, never a second round beside it; a job not
running is left to the scheduler to start.
"""

from __future__ import annotations

import asyncio

from moderator.runtime.rounds import Rounds


def test_a_job_asked_again_while_its_round_runs_takes_one_more_turn() -> None:
    async def scenario() -> list[int]:
        rounds = Rounds()
        turns: list[int] = []
        release = asyncio.Event()

        async def send_now() -> None:
            turns.append(len(turns))
            if len(turns) == 1:
                await release.wait()

        job = rounds.job(send_now)
        assert not rounds.ask_again("send_now")  # nothing runs: the scheduler starts it
        running = asyncio.create_task(job())
        await asyncio.sleep(0)
        assert rounds.ask_again("send_now")  # news during the round: one more turn
        assert rounds.ask_again("send_now")  # asked twice: still one more turn
        release.set()
        await running
        assert not rounds.ask_again("send_now")
        return turns

    assert asyncio.run(scenario()) == [0, 1]


def test_a_second_start_while_the_round_runs_runs_nothing_beside_it() -> None:
    async def scenario() -> int:
        rounds = Rounds()
        at_once, most = [0], [0]
        release = asyncio.Event()

        async def poll_now() -> None:
            at_once[0] += 1
            most[0] = max(most[0], at_once[0])
            await release.wait()
            at_once[0] -= 1

        job = rounds.job(poll_now)
        first = asyncio.create_task(job())
        await asyncio.sleep(0)
        await job()  # returns at once, having asked the first for one more turn
        release.set()
        await first
        return most[0]

    assert asyncio.run(scenario()) == 1
