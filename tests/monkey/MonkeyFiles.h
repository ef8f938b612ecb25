// The hostile files and settings the GUI monkey (tests/monkey/monkey.cpp) hands the window.
#pragma once

#include <QSettings>
#include <QString>
#include <QStringList>
#include <QVariant>

#include <random>

namespace monkey {

// Files that break readers, written into `dir`: matrices (a table declaring 2 x 2^31 float32, NaN
// embeddings, a truncated .npy, random bytes), model configs (1e400, null, a number, a FIFO, a
// loop of links, past 4 MiB, deep, a 65,536-layer config with a word where a count belongs), CSV
// tables (a lone CR, a byte-order mark, empty), a session of nonsense; with `dir` itself and a
// file that is not there. Their paths.
QStringList writeHostileFiles(const QString &dir, std::mt19937_64 &random);

// The settings file at `path` as a hostile one would hold it, one of several kinds by `random`: noise,
// a valid file with values no control takes (a d_model of 1e400, a geometry of random bytes, a
// lesson flag that is a list), or nothing. What the kind is, for the log.
QString writeHostileSettings(const QString &path, std::mt19937_64 &random);

// A value the monkey sets at one of the window's settings keys while it runs (`key`): a word, a
// huge number, a list, bytes. The dialogs that read them (export choices, the lessons' flags, the
// recent sessions) must take them as the defaults.
std::pair<QString, QVariant> hostileSetting(std::mt19937_64 &random);

} // namespace monkey
