#pragma once

#include "io/ElementType.h"

#include <QByteArrayView>
#include <QString>

#include <cstdint>
#include <optional>
#include <vector>

namespace posenc {

// The dict of a .npy header: {'descr': '<f4', 'fortran_order': False, 'shape': (3, 4), }
struct NpyHeader
{
    QString descr;
    bool fortranOrder = false;
    std::vector<std::int64_t> shape;
};

// Parses the header text that follows the length field, strictly: a Python dict literal with
// exactly the keys descr (a string), fortran_order (True or False) and shape (a tuple of
// non-negative integers, Python 2's 'L' suffix allowed), then only spaces up to a final '\n'.
// Returns why it is not one, or nothing.
std::optional<QString> parseNpyHeader(QByteArrayView text, NpyHeader &header);

// The element type of a descr such as '<f4', '>i8' or '|u1'; `why` says why it has none.
std::optional<ElementType> npyElementType(const QString &descr, QString &why);

} // namespace posenc
