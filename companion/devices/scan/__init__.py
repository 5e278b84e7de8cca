"""Card readers: USB-serial and HID barcode scanners, and the PN532 NFC reader."""
