import { z } from 'zod';
import * as a from './account';
import * as bank from './bank-cards';
import * as fund from './funding';
import * as id from './identity';
import * as m from './market';
import * as w from './wallet';
import * as wa from './wallet-addresses';

/**
 * Every /api call this build serves: path (relative to /api), method, whether it needs a session,
 * the request schema (form fields, all strings) and the schema of `data` in the ok envelope.
 * The server registers routes from this table; the client's typed helpers are derived from it.
 */
export interface CallSpec<Req extends z.ZodType = z.ZodType, Res extends z.ZodType = z.ZodType> {
  method: 'GET' | 'POST' | 'PUT';
  auth: boolean;
  request: Req;
  response: Res;
}

const call = <Req extends z.ZodType, Res extends z.ZodType>(
  method: CallSpec['method'],
  auth: boolean,
  request: Req,
  response: Res,
): CallSpec<Req, Res> => ({ method, auth, request, response });

/** Calls that take no fields. */
const none = z.object({});

export const calls = {
  email_send: call('POST', false, a.emailSendRequest, a.codeSentResponse),
  sms_send: call('POST', false, a.smsSendRequest, a.codeSentResponse),
  sms_other_mail: call('POST', true, a.otherMailRequest, a.codeSentResponse),
  area_code: call('POST', false, none, a.areaCodeResponse),
  'user/check_mobile': call('POST', false, a.checkMobileRequest, a.availableResponse),
  'user/check_email': call('POST', false, a.checkEmailRequest, a.availableResponse),
  'user/register': call('POST', false, a.registerRequest, a.sessionResponse),
  'user/login': call('POST', false, a.loginRequest, a.sessionResponse),
  'user/logout': call('POST', true, none, a.emptyResponse),
  'user/forget': call('POST', false, a.forgetRequest, a.emptyResponse),
  'set/lang': call('POST', false, a.setLangRequest, a.langResponse),
  'get/lang': call('POST', false, none, a.langResponse),
  'user/center': call('GET', true, none, a.user),
  'user/center2': call('GET', true, none, a.center2Response),
  'safe/update_password': call('POST', true, a.updatePasswordRequest, a.emptyResponse),
  'user/has_password': call('POST', true, none, a.hasPasswordResponse),
  'user/e_pwd': call('POST', true, a.fundPasswordRequest, a.emptyResponse),
  'currency/quotation_new': call('GET', false, none, m.quotesResponse),
  'currency/new_timeshar': call('GET', false, m.klineRequest, m.candlesResponse),
  'currency/deal': call('GET', false, m.dealRequest, m.tradesResponse),
  'currency/user_currency_list': call('GET', true, m.favouritesRequest, m.favouritesResponse),
  'coin/list': call('GET', false, m.instrumentsRequest, m.instrumentsResponse),
  'usstock/quotation': call('GET', false, none, m.quotesResponse),
  'usstock/kline': call('GET', false, m.klineRequest, m.candlesResponse),
  'usstock/getNewPrice': call('POST', false, m.symbolRequest, m.quote),
  'wallet/get_address': call('POST', true, wa.getAddressRequest, wa.addressListResponse),
  'wallet/addaddress': call('POST', true, wa.addAddressRequest, wa.withdrawAddress),
  'wallet/deladdress': call('POST', true, wa.delAddressRequest, a.emptyResponse),
  'wallet/apv_address': call('POST', true, wa.apvAddressRequest, wa.apvAddressResponse),
  'user/cash_save': call('POST', true, bank.cashSaveRequest, bank.cashSaveResponse),
  'user/cash_info': call('POST', true, none, bank.cashInfoResponse),
  'user/cash_delete': call('POST', true, bank.cashDeleteRequest, a.emptyResponse),
  'upload/delete': call('POST', true, id.uploadDeleteRequest, a.emptyResponse),
  'user/real_name': call('POST', true, id.basicVerificationRequest, id.verificationSubmittedResponse),
  'user/real_name2': call('POST', true, id.advancedVerificationRequest, id.verificationSubmittedResponse),
  'user/real_name_info': call('GET', true, none, id.realNameInfoResponse),
  'wallet/list': call('POST', true, w.walletListRequest, w.walletListResponse),
  'wallet/detail': call('POST', true, w.walletDetailRequest, w.walletDetailResponse),
  'wallet/legal_log': call('POST', true, w.legalLogRequest, w.legalLogResponse),
  'wallet/change': call('POST', true, w.transferRequest, w.transferResponse),
  'wallet/hzhistory': call('GET', true, w.transferHistoryRequest, w.transferHistoryResponse),
  'wallet/deposit_currency': call('POST', true, none, fund.depositCurrencyResponse),
  'wallet/deposit_address': call('POST', true, fund.depositAddressRequest, fund.depositAddressResponse),
  'wallet/check_address': call('POST', true, fund.checkHashRequest, fund.checkHashResponse),
  'wallet/charge_req': call('POST', true, fund.chargeRequest, fund.chargeResponse),
  'wallet/withdrawal_currency': call('POST', true, none, fund.withdrawalCurrencyResponse),
  'wallet/get_info': call('POST', true, fund.withdrawInfoRequest, fund.withdrawInfoResponse),
  'wallet/out': call('POST', true, fund.withdrawRequest, fund.withdrawResponse),
  'charge_mention/log2': call('GET', true, fund.fundingLogRequest, fund.depositLogResponse),
  'charge_mention/log3': call('GET', true, fund.fundingLogRequest, fund.withdrawalLogResponse),
} as const;

export type Calls = typeof calls;
export type CallPath = keyof Calls;
export type CallRequest<P extends CallPath> = z.input<Calls[P]['request']>;
export type CallData<P extends CallPath> = z.output<Calls[P]['response']>;
