"""Schedule search: the space a form's schedules are drawn from (space.py), an analytic cost
model that ranks them without a GPU (model.py, gpus.py), measured tuning records in a
database (db.py), and the ``tilec tune`` command (command.py)."""
