"""Early stopping replayed on a run's dev curve: where a stopping rule would have ended a run
trained to its whole schedule, and what it would have selected.

`replay` follows `training.monitor.RunMonitor`: an epoch improves when its dev value exceeds
the best so far, and the run stops once `patience` epochs pass without one; a rule may also
hold stopping off until `min_epochs` epochs have run. `check` compares that with the best
epoch of the whole curve, from dev values only.
"""

import dataclasses

# (patience, min_epochs) pairs `check` replays besides the registered patience.
CANDIDATE_RULES = ((5, 0), (10, 0), (15, 0), (20, 0), (5, 10), (5, 15), (5, 20), (10, 20))


@dataclasses.dataclass(frozen=True)
class Stop:
    """Where a rule ends a curve (1-based epochs): the last epoch run, and the selected one."""

    stop_epoch: int
    selected_epoch: int
    selected_value: float


def replay(values, patience, min_epochs=0):
    """The `Stop` of the dev curve `values` (one per epoch, higher is better) under early
    stopping with `patience`, not stopping before epoch `min_epochs`; a curve the rule never
    stops ends at its last epoch.

    Args:
        values: the selection metric of each epoch, epoch 1 first.
        patience: epochs without improvement after which training stops.
        min_epochs: the first epoch at which stopping may trigger (0: any).
    """
    best_epoch, best_value = 0, float("-inf")
    for epoch, value in enumerate(values, start=1):
        if value > best_value:
            best_epoch, best_value = epoch, value
        if epoch - best_epoch >= patience and epoch >= min_epochs:
            return Stop(epoch, best_epoch, best_value)
    return Stop(len(values), best_epoch, best_value)


def check(values, patience, rules=CANDIDATE_RULES):
    """The record of one dev curve: its values, the whole schedule's best epoch and value,
    the registered rule's stop, and each candidate rule's stop.

    Args:
        values: the selection metric of each epoch of a run trained to its whole schedule.
        patience: the row's registered early-stopping patience.
        rules: (patience, min_epochs) pairs to replay besides it.
    """
    whole = replay(values, patience=len(values) + 1)
    registered = replay(values, patience)
    return {
        "dev": [float(v) for v in values],
        "best_epoch": whole.selected_epoch,
        "best_value": whole.selected_value,
        "patience_stop_epoch": registered.stop_epoch,
        "patience_selected_epoch": registered.selected_epoch,
        "patience_selected_value": registered.selected_value,
        "rules": [
            {"patience": p, "min_epochs": m, **dataclasses.asdict(replay(values, p, m))}
            for p, m in rules
        ],
    }


# The rows worth a whole-schedule run: a schedule of at least MIN_SCHEDULE epochs whose seeds
# all ended within WITHIN epochs, most of them on the patience rule (not on an epoch cap).
MIN_SCHEDULE, WITHIN = 20, 10


def stopped_on_patience(best_epochs, epochs_run, patience):
    """How many seeds ended on the patience rule: `patience` epochs after their best one."""
    return sum(run - best >= patience for best, run in zip(best_epochs, epochs_run))


def needs_check(schedule, patience, best_epochs, epochs_run):
    """Whether a row's recorded seeds stopped so early that dev noise, not a dev maximum, may
    have ended them: every seed ran at most WITHIN of a schedule of at least MIN_SCHEDULE
    epochs, and at least half of them stopped on `patience`.

    Args:
        schedule: the row's registered epochs.
        patience: its registered early-stopping patience.
        best_epochs, epochs_run: per seed of its record, the selected and the last epoch.
    """
    if schedule < MIN_SCHEDULE or not epochs_run or max(epochs_run) > WITHIN:
        return False
    return 2 * stopped_on_patience(best_epochs, epochs_run, patience) >= len(epochs_run)


def best_after_stop(checked):
    """Whether a checked curve (`check`'s record) peaks after the registered rule stopped it."""
    return checked["best_epoch"] > checked["patience_stop_epoch"]


def highest_after_stop(checked):
    """(epoch, value) of the highest dev value after the registered stop; None when the stop
    is the curve's last epoch. The first such epoch wins a tie."""
    later = checked["dev"][checked["patience_stop_epoch"] :]
    if not later:
        return None
    offset = max(range(len(later)), key=lambda i: (later[i], -i))
    return checked["patience_stop_epoch"] + offset + 1, later[offset]
