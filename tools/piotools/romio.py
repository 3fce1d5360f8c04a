"""What ROMIO's MPI-IO hints act on (MPICH's MPI-IO), where the tools must tell a setting that
had an effect from one that could not: collective buffering (two-phase I/O) acts only on
collective calls, and no MPI-IO hint reaches a file written through POSIX."""

# The hints of ROMIO's collective buffering (two-phase I/O).
CB_HINTS = ("cb_buffer_size", "cb_nodes", "cb_config_list", "romio_cb_write", "romio_cb_read",
            "romio_no_indep_rw")


def no_effect(hint, interface, collective):
    """Why an MPI-IO hint has no effect under this interface and call style, or None."""
    if interface == "posix":
        return "no effect through Interface posix (no MPI-IO)"
    if hint in CB_HINTS and collective == "off":
        return "no effect under Collective off (collective buffering acts on collective calls)"
    return None


def setting_no_effect(name, interface, collective):
    """Why a setting pio-tune may vary (Collective, FileView, Hint:<key>) has no effect under this
    interface and call style, or None: a hint as no_effect says; Collective and FileView
    through POSIX, which makes each rank's own calls (posix runs collective calls
    independently; file views are MPI-IO's)."""
    if name.startswith("Hint:"):
        return no_effect(name[5:], interface, collective)
    if name == "Collective" and interface == "posix":
        return "no effect through Interface posix (each rank's own calls, no MPI-IO)"
    if name == "FileView" and interface == "posix":
        return "no effect through Interface posix (file views are MPI-IO's)"
    return None
