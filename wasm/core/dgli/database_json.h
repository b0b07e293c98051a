// The file form of a dGLI database: format "tela-dgli-database", version 1.
#pragma once

#include "base/result.h"
#include "dgli/dgli_database.h"

#include <string>

namespace tela {

// JSON form (format "tela-dgli-database", version 1). Values are rounded to `digits`
// decimals to keep the file small.
std::string database_to_json(const DgliDatabase& db, int digits = 4);
Result<DgliDatabase> parse_database(const std::string& json_text);

}  // namespace tela
