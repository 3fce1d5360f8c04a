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
