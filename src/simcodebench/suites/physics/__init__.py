"""The physics suite: PhysCodeBench (Genesis scenes rendered to video), scored by PhysCodeEval and by physics."""
