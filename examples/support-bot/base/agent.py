"""A customer-support agent built with the OpenAI Agents SDK."""

from agents import Agent, function_tool


@function_tool
def lookup_order(order_id: str) -> dict:
    """Look up an order by its id."""
    return {"id": order_id, "status": "shipped"}


@function_tool
def track_parcel(order_id: str) -> str:
    """Where the parcel is now."""
    return f"parcel for {order_id} is in transit"


support = Agent(
    name="Support",
    instructions="Help customers with their orders.",
    tools=[lookup_order, track_parcel],
)
