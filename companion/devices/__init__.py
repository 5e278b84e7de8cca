"""Hardware: card readers, the tray accelerometer, GPIO, and their emulators."""
