// The parsers of a scenario file's sections (scenario/json.h's parse_scenario), one file each:
// parse_mesh.cpp, parse_material.cpp, parse_solver.cpp, parse_motion.cpp, parse_controls.cpp,
// parse_obstacles.cpp, parse_self_collision.cpp. Each returns false and sets `error`, naming the
// field ("mesh.nx: must be >= 2 (got 1)"), on a value it cannot use; base/json_read.h reads
// the values.
#pragma once

#include "scenario/scenario.h"

#include <nlohmann/json.hpp>

#include <string>
#include <vector>

namespace tela {

bool parse_mesh(const nlohmann::json& m, MeshDesc& out, std::string& error);
// the node count when the mesh description fixes it (explicit meshes, structured rectangles),
// else -1: node indices of the controls are checked against it
int known_node_count(const MeshDesc& mesh);
bool parse_material(const nlohmann::json& j, Material& material, std::string& error);
bool parse_solver(const nlohmann::json& j, SolverSettings& solver, std::string& error);
// a control's or an obstacle's translation at `path`
bool parse_motion(const nlohmann::json& j, const std::string& path, Motion& motion, std::string& error);
// node indices are checked against node_count when it is >= 0
bool parse_controls(const nlohmann::json& j, int node_count, std::vector<Control>& out, std::string& error);
bool parse_obstacles(const nlohmann::json& j, std::vector<ObstacleDesc>& out, std::string& error);
bool parse_self_collision(const nlohmann::json& j, SelfCollision& out, std::string& error);

}  // namespace tela
