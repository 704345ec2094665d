"""What a new agent is sent, checked before anything is: repositories and variables, the model, images and
every free text."""
