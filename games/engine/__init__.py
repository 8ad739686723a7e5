"""The pure rules engine of Dvorak: no Django, no database, no clock."""
