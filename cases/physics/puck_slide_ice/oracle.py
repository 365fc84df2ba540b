"""Oracle: an ice-hockey puck sliding at 0.9 m/s on ice (friction 0.1) stops after v0^2 / (2 mu g)."""

import genesis as gs

RES, FPS, SECONDS = (1280, 640), 60, 5.0

gs.init(backend=gs.gpu, logging_level="warning")
scene = gs.Scene(
    sim_options=gs.options.SimOptions(dt=1.0 / FPS, substeps=240 // FPS, gravity=(0.0, 0.0, -9.81)),
    show_viewer=False,
)
scene.add_entity(gs.morphs.Plane(), material=gs.materials.Rigid(friction=0.1))
puck = scene.add_entity(
    gs.morphs.Cylinder(radius=0.038, height=0.025, pos=(-0.2, 0.0, 0.0125)),
    material=gs.materials.Rigid(rho=1450.0, friction=0.1),
    surface=gs.surfaces.Default(color=(0.05, 0.05, 0.05)),
)
cam = scene.add_camera(res=RES, pos=(0.0, -1.2, 0.5), lookat=(0.0, 0.0, 0.0), fov=45, GUI=False)
scene.build()
puck.set_dofs_velocity([0.9, 0.0, 0.0, 0.0, 0.0, 0.0])
cam.start_recording(save_to_filename="genesis_video.mp4", fps=FPS)
for _ in range(int(SECONDS * FPS)):
    scene.step()
cam.stop_recording()
