#pragma once

#include "ParamOptions.h"

#include <QCommandLineParser>
#include <QString>

// --embeddings FILE[:TENSOR] and --tokens LIST (rows of the parameter table): rows of a real
// matrix as the token embeddings.
namespace posenc::EmbeddingOptions {

// Loads the matrix of --embeddings into result.params, after the other parameters were read:
// d_model comes from its columns, max_len (unless given) from its rows or the --tokens list, and
// only the rows used are read. Problems go to the result's errors (exit 2), fileError (exit 3)
// or overBudget (exit 4).
void read(const ParamOptions::Given &given, ParamOptions::Result &result);

} // namespace posenc::EmbeddingOptions
