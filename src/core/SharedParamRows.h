#pragma once

#include "ParamTable.h"

// The rows of the groups every family shares (docs/ARCHITECTURE.md, "The parameter table"), as a
// family's are in its folder: the model and the embeddings (ModelParamRows.cpp), dropout and the
// run (DropoutParamRows.cpp).
namespace posenc::SharedParamRows {

QList<ParamSpec> model();
QList<ParamSpec> embeddings();
QList<ParamSpec> dropout();
QList<ParamSpec> run();

} // namespace posenc::SharedParamRows
