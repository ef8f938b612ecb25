#pragma once

#include "check/ApplyHypothesis.h"
#include "check/rope/ApplyPairs.h"

#include <QList>
#include <QString>
#include <QStringList>

#include <utility>

// The report of posenc check --apply that every rotary family's check shares (ApplyPairs.h,
// Outcome): the verdict, the pairing, the attention factor, the cells, the mistakes, the diagnosis
// and the notes, in the lines and in --json; a family adds its own lines and keys between them.
namespace posenc::ApplyReport {

using Entries = QList<std::pair<QString, QString>>;

// What a family puts in its report, beside the shared part.
struct Family
{
    QString equals; // after "equals: ", for a correct verdict
    bool found = false; // a rotation was read: more than the verdict and the diagnosis to say
    QStringList pairing; // the lines after the rotation's: the frequencies, the split
    QStringList positions; // the lines after the attention factor: the positions or ids
    Entries head; // --json's keys after "verdict"
    Entries pairingKeys; // after "table_layout"
    Entries positionKeys; // after "attention_factor"
};

QString layoutWord(RopeLayout layout); // "half", "interleaved"
QStringList lines(const ApplyPairs::Outcome &r, const Family &family);
// --json's members, without the braces and the command line's format and version.
QString json(const ApplyPairs::Outcome &r, const Family &family);
// The report of an outcome and its family's share (ApplyHypothesis::check's).
ApplyResult result(const ApplyPairs::Outcome &r, const Family &family);

} // namespace posenc::ApplyReport
