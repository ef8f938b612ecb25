#pragma once

#include <QString>
#include <QTextStream>

// The process's standard streams at its start and its end (docs/ARCHITECTURE.md, Command line):
// a closed one is never taken for a file the program opens, and output that could not be written
// is an error, not a success.
namespace posenc::StandardStreams {

// Before any file is opened: a closed standard input, output or error takes /dev/null opened the
// wrong way round (standard input write-only, the others read-only), so that the next file opened
// (Qt's event pipe, a table being read) does not take its descriptor, and every read of standard
// input and write of standard output fails with EBADF as on the closed stream ("posenc check - <&-"
// read Qt's eventfd as the table).
void holdClosed();

// The exit code once standard output's last bytes are written: `code`, or 3 with "COMMAND:
// standard output: REASON" where they could not be (a full disk, a closed descriptor) and `code`
// said the output was the answer (0, or a check's verdict), as GNU's close_stdout does. A run that
// already failed (2, 3, 4, 130) keeps its code and its one message.
int finishOutput(const QString &command, int code, QTextStream &out, QTextStream &err);

} // namespace posenc::StandardStreams
