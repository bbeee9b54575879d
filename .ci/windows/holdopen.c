/* Holds a file open the way the game client or another editor does: shared for reading and
 * writing but not for deletion, which is what makes Windows refuse to rename another file over
 * it. The smoke test (.ci/windows-smoke) saves over a file held so and expects loam to refuse in
 * words and touch nothing. Usage: holdopen.exe FILE READY STOP: opens FILE, creates READY, then
 * waits (at most a minute) for STOP to exist before letting go. */
#include <windows.h>
#include <stdio.h>

int wmain(int argc, wchar_t **argv)
{
    if (argc != 4) {
        fwprintf(stderr, L"usage: holdopen FILE READY STOP\n");
        return 2;
    }
    HANDLE held = CreateFileW(argv[1], GENERIC_READ, FILE_SHARE_READ | FILE_SHARE_WRITE, NULL,
                              OPEN_EXISTING, FILE_ATTRIBUTE_NORMAL, NULL);
    if (held == INVALID_HANDLE_VALUE) {
        fwprintf(stderr, L"holdopen: cannot open %ls (error %lu)\n", argv[1], GetLastError());
        return 1;
    }
    HANDLE ready = CreateFileW(argv[2], GENERIC_WRITE, 0, NULL, CREATE_ALWAYS, 0, NULL);
    if (ready == INVALID_HANDLE_VALUE)
        return 1;
    CloseHandle(ready);
    for (int i = 0; i < 600 && GetFileAttributesW(argv[3]) == INVALID_FILE_ATTRIBUTES; i++)
        Sleep(100);
    CloseHandle(held);
    return 0;
}
