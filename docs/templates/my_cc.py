class MyCc(CcModel):
    """Template of a congestion control's model (docs/adding-an-algorithm.md): GAIMD (Yang & Lam,
    ICNP 2000), a segments per RTT in congestion avoidance, b of the window kept after a loss."""

    variants: ClassVar[Mapping[str, str]] = {"my_cc": "newreno"}
    kind: Literal["my_cc"]
    increase_segments: Segments = 1.0
    """a: segments added per RTT in congestion avoidance (Reno: 1)."""
    decrease_factor: Annotated[
        float, Validated(_fraction, {"type": "number", "exclusiveMinimum": 0, "exclusiveMaximum": 1})
    ] = 0.5
    """b: the share of the window kept after a loss (Reno: 0.5)."""
