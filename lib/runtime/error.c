/* error.c: error codes, their names, and the thread-local message of the latest failure. */
#include <stdarg.h>
#include <stdio.h>

#include "tilert_int.h"

enum { MESSAGE_MAX = 1024 };

static _Thread_local char last_message[MESSAGE_MAX];

/* code                              string */
static const char *const error_strings[] = {
	[TILERT_OK] = "TILERT_OK: success",
	[TILERT_ERR_INVALID_ARGUMENT] = "TILERT_ERR_INVALID_ARGUMENT: invalid argument",
	[TILERT_ERR_FORMAT] = "TILERT_ERR_FORMAT: bad or truncated artifact",
	[TILERT_ERR_NOT_FOUND] = "TILERT_ERR_NOT_FOUND: no kernel of that name",
	[TILERT_ERR_ARGUMENTS] = "TILERT_ERR_ARGUMENTS: wrong number of kernel arguments",
	[TILERT_ERR_NO_DRIVER] = "TILERT_ERR_NO_DRIVER: no GPU driver for this artifact",
	[TILERT_ERR_UNSUPPORTED] = "TILERT_ERR_UNSUPPORTED: not supported by this build",
	[TILERT_ERR_OUT_OF_MEMORY] = "TILERT_ERR_OUT_OF_MEMORY: out of memory",
	[TILERT_ERR_LAUNCH] = "TILERT_ERR_LAUNCH: launch failed",
	[TILERT_ERR_IO] = "TILERT_ERR_IO: input/output error",
};

const char *tilert_error_string(int code)
{
	if (code < 0 || (size_t)code >= sizeof error_strings / sizeof error_strings[0])
		return "unknown tilert error code";
	return error_strings[code];
}

const char *tilert_last_error(void)
{
	return last_message;
}

int tilert_fail(int code, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(last_message, sizeof last_message, fmt, ap);
	va_end(ap);
	return code;
}

int tilert_fail_call(int code, const char *call, const char *err, const char *context, va_list ap)
{
	char where[300] = "";

	if (context)
		vsnprintf(where, sizeof where, context, ap);
	return tilert_fail(code, "%s%s%s: %s", where, *where ? ": " : "", call, err);
}
