// The scenario (file format version 1): everything that determines a run.
// See docs/formats.md, "Scenario file", for the JSON form; parse/serialize live in scenario/json.h.
// These are the file's structs (the spec); the compile step (sim/compile.h) builds the
// runtime types the simulation uses from them.
#pragma once

#include <Eigen/Core>
#include <cstdint>
#include <limits>
#include <string>
#include <variant>
#include <vector>

namespace tela {

struct RectangleMeshDesc {
  double width = 1.0, height = 1.0;     // metres
  int nx = 10, ny = 10;                 // nodes along width and height
  std::string elements = "quad";        // quad | tri | tri_left | tri_irregular
  int nodes = 0;                        // tri_irregular: total node count (0: nx*ny)
  std::string plane = "xy";             // xy | xz | yz
  Eigen::Vector3d origin{0, 0, 0};      // bottom-left corner, metres
  double noise = 0.0;                   // SD of normal displacement, metres
};

struct DiscMeshDesc {                   // "disc" and "ring"
  bool ring = false;
  double radius = 0.15, inner_radius = 0.0;  // metres
  int rings = 8, sectors = 96;
  std::string plane = "xy";
  Eigen::Vector3d center{0, 0, 0};
  double noise = 0.0;
};

struct ExplicitMeshDesc {               // "mesh"
  std::vector<double> vertices;         // #nodes*3, metres
  std::vector<std::vector<int>> faces;  // each of size 3 or 4
};

using MeshDesc = std::variant<RectangleMeshDesc, DiscMeshDesc, ExplicitMeshDesc>;

struct Material {
  double rho = 0.1804;  // inertial density, kg/m^2
  double delta = 0.087; // virtual gravitational density, kg/m^2 (aerodynamics, thesis 2.5.1)
  double alpha = 0.35;  // mass-proportional (Rayleigh) damping, kg/(m^2 s)
  double kappa = 0.0;   // bending stiffness
  double beta = 0.0;    // stiffness-proportional damping
  double shear = 0.0;   // shearing energy k_s; > 0 drops the hard F constraints
};

struct SolverSettings {
  double dt = 0.01;             // s
  double tolerance = 1e-3;      // relative constraint error (see cloth/constraints.h)
  int max_iterations = 50;      // projection iterations per step
  // adaptive subdivision (cloth/step.h, our addition): at most 1, 2 or 4 substeps per step;
  // 1 is the thesis' fixed step
  int max_substeps = 4;
  // strain limit epsilon (cloth/strain_limit.h, our addition): element node pairs stay within
  // (1 + epsilon) of their rest distance; 0 (default) is the thesis' model alone
  double strain_limit = 0.0;
};

// Node selector: explicit indices, or a node-set name of the mesh. The name is either "set"
// (every node of that set) or "set:i,j,k" (elements i, j, k of the set, by position in the
// set's list, e.g. "corners:0,1,3" = bottom-left, bottom-right, top-left). The parser checks
// only the syntax; whether the mesh has the set (and the positions) is checked when the mesh
// is built.
struct NodeSelector {
  std::string name;             // empty when indices are used
  std::vector<int> indices;
};

struct Keyframe {
  double time = 0;              // s
  Eigen::Vector3d offset{0, 0, 0};  // displacement from the rest position, metres
};

// Prescribed motion of the selected nodes, as a displacement from their rest positions.
struct Motion {
  std::string type = "hold";    // hold | sinusoid | keyframes
  // sinusoid: d(t) = axis * amplitude * (sin(2 pi f (t - start) + phase) - sin(phase))
  // for start <= t <= stop, held constant outside that window.
  Eigen::Vector3d axis{1, 0, 0};
  double amplitude = 0, frequency = 0, phase = 0, start = 0, stop = 1e300;
  std::vector<Keyframe> keyframes;  // linear interpolation, held before/after
};

struct Control {
  NodeSelector nodes;
  Motion motion;
  // s: the grasp opens at the first step that starts at or after this time, and the nodes
  // move freely from then on with the velocity they had (never, by default)
  double release = std::numeric_limits<double>::infinity();
};

// Rigid motion of an obstacle (contact/obstacles/rigid_pose.h): a translation d(t) given as a Motion
// (hold | sinusoid | keyframes, as for controls) and a rotation about `rotation_axis` through
// `pivot` (+ d(t)) at `angular_velocity` rad/s during [rotation_start, rotation_stop].
// World position at time t of a body point x0 (its t = 0 position):
//   x(t) = pivot + d(t) + R(theta(t)) (x0 - pivot),  theta = w * (clamp(t, start, stop) - start).
struct ObstacleMotion {
  Motion translation;                     // type "hold": no translation
  Eigen::Vector3d rotation_axis{0, 0, 1}; // unit after parsing
  Eigen::Vector3d pivot{0, 0, 0};         // metres; the parser defaults it to the obstacle's centre
  bool pivot_given = false;
  double angular_velocity = 0;            // rad/s (right-hand rule about rotation_axis)
  double rotation_start = 0, rotation_stop = 1e300;  // s
};

// One obstacle of the scene (thesis §3.6, §4.3.2). Fields by type (SI units):
//   plane:    point, normal (outward, unit after parsing)            infinite half-space below
//   box:      center, size (full edge lengths along x, y, z)         solid axis-aligned box
//   sphere:   center, radius
//   cylinder: center, axis (unit), radius, length (> 0: capped, flat ends; 0: infinite)
//   stick:    points (polyline, >= 2), radius, segment (max edge length after subdivision)
//   needles:  center (base of the field), spacing, count [nx, ny], c1, c2: needles of profile
//             sqrt(c1 r) + sqrt(h / c2) = 1 (r <= 1/c1) on a grid, cusps at their tips
struct ObstacleDesc {
  std::string type = "plane";
  double mu = 0;                          // Coulomb friction coefficient, >= 0
  Eigen::Vector3d point{0, 0, 0};         // plane
  Eigen::Vector3d normal{0, 0, 1};        // plane
  Eigen::Vector3d center{0, 0, 0};        // box, sphere, cylinder, needles
  Eigen::Vector3d size{1, 1, 1};          // box
  double radius = 0.1;                    // sphere, cylinder, stick
  Eigen::Vector3d axis{0, 0, 1};          // cylinder
  double length = 0;                      // cylinder: 0 = infinite
  std::vector<Eigen::Vector3d> points;    // stick
  double segment = 0.02;                  // stick
  double spacing = 0.15;                  // needles
  int count_x = 3, count_y = 3;           // needles
  double c1 = 20, c2 = 0.075;             // needles (thesis §3.6.3)
  ObstacleMotion motion;
};

// Cloth-cloth contact (thesis §3.3). The thickness tau0 is also the cloth's clearance from
// obstacles: its mid-surface keeps tau0 / 2 away from an obstacle surface.
struct SelfCollision {
  bool enabled = false;
  double thickness = 0.003;   // tau0, metres
  double mu = 0.3;            // cloth-cloth friction
  double proximity = 0.5;     // omega of thesis §3.3.3, in [0, 0.5]
};

struct Scenario {
  int version = 1;
  std::string name;
  std::string description;
  MeshDesc mesh = RectangleMeshDesc{};
  Material material;
  SolverSettings solver;
  double duration = 2.0;        // s
  std::vector<Control> controls;
  // scene metrics added to the run summary: "drape_coefficient" (ring meshes: Cusick's
  // drape coefficient, %, with the inner boundary as the table edge), "free_corner" (the
  // final position of the corners that no control holds).
  std::vector<std::string> metrics;
  std::uint64_t seed = 1;     // noise and irregular meshes
  std::vector<ObstacleDesc> obstacles;
  SelfCollision self_collision;
};

}  // namespace tela
