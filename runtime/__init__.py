"""What every process of the arena runs on, services and clients alike: its event loop
(``loops``), its log lines (``logs``) and how it stops on a signal (``stopping``)."""
