# A wooden box tipped 30 degrees falls onto the ground; the camera records every step to an mp4.
import math

import genesis as gs

gs.init(backend=gs.cpu)
sim = gs.options.SimOptions(dt=0.01, substeps=4)
world = gs.Scene(sim_options=sim, show_viewer=False)
ground = world.add_entity(morph=gs.morphs.Plane())
half = math.radians(30) / 2
box = world.add_entity(
    morph=gs.morphs.Box(size=(0.2, 0.2, 0.2), pos=(0, 0, 0.6), quat=(math.cos(half), math.sin(half), 0, 0)),
    material=gs.materials.Rigid(rho=600, friction=0.6),
)
camera = world.add_camera(res=(640, 320), pos=(2, 2, 1), lookat=(0, 0, 0.2), fov=35, GUI=False)
world.build()
camera.start_recording(save_to_filename="box_drop.mp4", fps=100)  # each world.step() renders one frame
for _ in range(100):
    world.step()
print("box height:", float(box.get_pos()[2]))
camera.stop_recording()  # writes the file
