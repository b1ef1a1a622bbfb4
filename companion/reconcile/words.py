"""Plain words for an action, for "here is what I think happened" and prompt buttons."""

from __future__ import annotations

from typing import Any


def _pay(pay: dict[str, int] | None) -> str:
    if not pay:
        return ""
    return " paying " + ", ".join(f"{n} {k}" for k, n in sorted(pay.items()))


def describe(a: dict[str, Any]) -> str:
    """``{"type": "take", "player": "red", "space": "harvest", "cube": "brown"}`` →
    ``red takes a brown cube from harvest``. Unknown types are shown as their fields."""
    t, who = a.get("type"), a.get("player", "")
    pay = _pay(a.get("pay"))
    match t:
        case "take":
            return f"{who} takes a {a['cube']} cube from {a['space']}"
        case "well":
            return f"{who} uses the well (3 {a['color']}) for {a['space']}"
        case "free":
            return f"{who} acts on {a['space']} (final turn)"
        case "skip":
            return f"{who} does nothing more"
        case "harvest":
            return f"{who} harvests grain"
        case "birth":
            return f"a child is born to {who}"
        case "recall":
            return f"{who} brings {a['member']} home"
        case "train":
            good = f" and makes a {a['good']}" if a.get("good") else ""
            return f"{a['member']} trains at the {a['building']}{good}"
        case "produce":
            return f"{who} makes a {a['good']} at the {a['building']}"
        case "buy":
            return f"{who} buys a {a['good']}{pay}"
        case "mill":
            return f"{who} uses the mill"
        case "serve":
            return f"{who} serves the customer on stall {a['slot'] + 1}{pay}"
        case "pass":
            return f"{who} stops selling"
        case "travel":
            gain = f", gaining {' and '.join(a['gain'])}" if a.get("gain") else ""
            return f"{a['member']} travels to {a['city']}{pay}{gain}"
        case "council_enter":
            return f"{a['member']} enters the council{pay}"
        case "council_advance":
            return f"{a['member']} moves up the council{pay}"
        case "privilege":
            gain = f" ({', '.join(a['gain'])})" if a.get("gain") else ""
            return f"{who} uses privilege {a['level']}{gain}"
        case "church":
            return f"{a['member']} goes to church{pay}"
        case "die":
            return f"{a['member']} dies"
        case "buyout":
            members = ", ".join(a["members"]) or "nobody"
            return f"{who} buys out {members}"
        case "church_move":
            return f"{a['member']} moves one window left"
        case "done":
            return f"{who} is done moving in the church"
        case "fill_bag":
            return "the green bag is drawn onto the action spaces"
        case "mass_draw":
            return "figures drawn from the black bag: " + ", ".join(a["figures"])
        case "reveal_customers":
            return "customer tiles turned up"
    return str(a)


def describe_all(actions: list[dict[str, Any]]) -> str:
    return "; then ".join(describe(a) for a in actions)


__all__ = ["describe", "describe_all"]
