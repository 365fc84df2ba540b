# An elastic MPM cube (a soft body made of particles) lands on the ground.
import genesis as gs

gs.init(backend=gs.cpu)
world = gs.Scene(
    sim_options=gs.options.SimOptions(dt=2e-3, substeps=10),
    mpm_options=gs.options.MPMOptions(lower_bound=(-0.5, -0.5, 0.0), upper_bound=(0.5, 0.5, 1.0), grid_density=64),
    show_viewer=False,
)
world.add_entity(morph=gs.morphs.Plane())
jelly = world.add_entity(
    morph=gs.morphs.Box(pos=(0, 0, 0.4), size=(0.2, 0.2, 0.2)),
    material=gs.materials.MPM.Elastic(E=5e4, nu=0.3, rho=1000),
)
world.build()
for _ in range(10):
    world.step()
print("particles:", jelly.get_particles_pos().shape)
